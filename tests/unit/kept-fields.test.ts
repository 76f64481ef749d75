// What an interrupted batch brings back when its files are chosen again (issue 40): every shared
// field of the batch (stage, client, notes, tags, both switches) comes back with each file's
// own title, unless any of them was typed first, which then wins whole.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { EMPTY_FIELDS, forgetFields, keptFields, rememberFields, withSharedFields, type UploadFields } from '../../src/islands/admin/uploads/kept-fields.ts';

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

describe('forgetFields after a check that began when the file was chosen', () => {
  // The browser's storage, as the dialog has it (Node has none without a flag).
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, String(v)),
    removeItem: (k: string) => void store.delete(k),
    clear: () => store.clear(),
    key: (i: number) => [...store.keys()][i] ?? null,
    get length() {
      return store.size;
    },
  };
  vi.stubGlobal('localStorage', new Proxy(storage, { ownKeys: () => [...store.keys()], getOwnPropertyDescriptor: (_t, k) => (store.has(String(k)) ? { enumerable: true, configurable: true, value: store.get(String(k)) } : undefined) }));
  afterEach(() => {
    vi.useRealTimers();
    store.clear();
  });
  const file = new File(['x'], 'clip.mp4', { lastModified: 1 });

  test('fields kept before the file was chosen go; fields kept since (an upload started meanwhile) stay', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000);
    rememberFields('ann', file, kept);
    forgetFields('ann', file, 2_000);
    expect(keptFields('ann', file)).toBeNull();

    const chosenAt = 2_000;
    vi.setSystemTime(2_500); // the upload starts before the slow check answers
    rememberFields('ann', file, kept);
    forgetFields('ann', file, chosenAt);
    expect(keptFields('ann', file)).toEqual(kept);
    // Without a moment (a finished or cancelled upload) they go whatever their age.
    forgetFields('ann', file);
    expect(keptFields('ann', file)).toBeNull();
  });
});
