// Issue 19 #16: the fetch helper turns failures into sentences people understand, and the
// sign-in pages only follow same-site return paths.
import { describe, expect, test } from 'vitest';
import { ApiError, NETWORK_MESSAGE, NetworkError, SERVER_ERROR_MESSAGE, UNAVAILABLE_MESSAGE, apiErrorFrom, errorMessage, splitFieldPrefix } from '../../src/shared/api.ts';
import { safeReturnPath, signInAgainHref } from '../../src/shared/landing.ts';

describe('apiErrorFrom', () => {
  test.each([
    [500, 'Internal Server Error', 'Internal Server Error', SERVER_ERROR_MESSAGE, null],
    [500, 'Internal Server Error', '<!doctype html><h1>500</h1>', SERVER_ERROR_MESSAGE, null],
    [500, '', '{"message":"Internal Server Error"}', SERVER_ERROR_MESSAGE, null],
    [500, '', '{"message":"Something went wrong on our side. Please try again."}', 'Something went wrong on our side. Please try again.', null],
    [502, 'Bad Gateway', '<html>nginx</html>', UNAVAILABLE_MESSAGE, null],
    [503, 'Service Unavailable', '', UNAVAILABLE_MESSAGE, null],
    [400, 'Bad Request', '{"message":"message: Message is required"}', 'Message is required', 'message'],
    [400, 'Bad Request', '{"message":"contactPhone: Phone must be at most 50 characters"}', 'Phone must be at most 50 characters', 'contactPhone'],
    [409, 'Conflict', '{"message":"Email a@b.test is already in use"}', 'Email a@b.test is already in use', null],
    [404, 'Not Found', '', 'Not Found', null],
  ])('%i %s %s -> %s', (status, statusText, body, message, field) => {
    const e = apiErrorFrom(status, statusText, body, '/api/x');
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(status);
    expect(errorMessage(e)).toBe(message);
    expect(e.field).toBe(field);
  });

  test.each([[new NetworkError()], [new TypeError('Failed to fetch')], [new TypeError('NetworkError when attempting to fetch resource.')]])(
    'a network failure (%s) reads as the connection sentence',
    (e) => {
      expect(errorMessage(e)).toBe(NETWORK_MESSAGE);
    },
  );
});

test.each([
  ['title: Title is required', 'title', 'Title is required'],
  ['roles.0: Unknown role', 'roles.0', 'Unknown role'],
  ['Invalid username or password', null, 'Invalid username or password'],
  ['Note: this has a colon', 'Note', 'this has a colon'],
])('splitFieldPrefix(%s)', (input, field, text) => {
  expect(splitFieldPrefix(input)).toEqual({ field, text });
});

describe('safeReturnPath', () => {
  test.each([
    ['/admin/media', '/admin/media'],
    ['/admin/media?q=a%20b#x', '/admin/media?q=a%20b#x'],
    ['/client/dashboard', '/client/dashboard'],
    ['/a/../admin', '/admin'],
  ])('keeps %s', (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });
  test.each([[null], [''], ['admin'], ['//evil.example/x'], ['/\\evil.example'], ['https://evil.example/'], ['javascript:alert(1)'], ['/\t/evil.example'], ['/admin\u0000'], ['/' + 'a'.repeat(2001)]])(
    'refuses %s',
    (raw) => {
      expect(safeReturnPath(raw)).toBeNull();
    },
  );
  test.each([
    ['/admin/media?tab=2', '/auth?next=%2Fadmin%2Fmedia%3Ftab%3D2'],
    ['/client/dashboard', '/client/login?next=%2Fclient%2Fdashboard'],
    ['/client/login', null],
    ['/contact', null],
  ])('signInAgainHref(%s)', (path, href) => {
    expect(signInAgainHref(path)).toBe(href);
  });
});
