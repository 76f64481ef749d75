// What an interrupted batch brings back when its files are chosen again (issue 40): every shared
// field of the batch (stage, client, notes, tags, both switches) comes back with each file's
// own title, unless any of them was typed first, which then wins whole.
import { describe, expect, test } from 'vitest';
import { EMPTY_FIELDS, withSharedFields, type UploadFields } from '../../src/islands/admin/uploads/kept-fields.ts';

const kept: UploadFields = {
  title: 'batch kept one',
  projectStage: 'post-production',
  notes: 'Shared batch notes',
  clientId: '7',
  tags: 'batch, kept',
  isFeatured: true,
  showInPortfolio: true,
};

describe('withSharedFields', () => {
  test('an untouched form gets every kept field; its own title stays', () => {
    expect(withSharedFields({ ...EMPTY_FIELDS, title: 'typed title' }, kept)).toEqual({ ...kept, title: 'typed title' });
  });

  test.each<[keyof UploadFields, UploadFields[keyof UploadFields]]>([
    ['projectStage', 'concept'],
    ['clientId', '3'],
    ['notes', 'Typed first'],
    ['tags', 'mine'],
    ['isFeatured', true],
    ['showInPortfolio', true],
  ])('%s typed before the files were chosen: the form stays as typed, nothing kept mixes in', (field, value) => {
    const form = { ...EMPTY_FIELDS, [field]: value };
    expect(withSharedFields(form, kept)).toEqual(form);
  });
});
