import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from '../../../src/client/pagination.js';

describe('parseLinkHeader', () => {
  it('reads absolute next/prev/first/last links', () => {
    const header =
      '<https://api.example.com/v1/1/orders?page=3&per_page=200>; rel="next", ' +
      '<https://api.example.com/v1/1/orders?page=1&per_page=200>; rel="prev", ' +
      '<https://api.example.com/v1/1/orders?page=1&per_page=200>; rel="first", ' +
      '<https://api.example.com/v1/1/orders?page=9&per_page=200>; rel="last"';
    expect(parseLinkHeader(header)).toEqual({
      next: 'https://api.example.com/v1/1/orders?page=3&per_page=200',
      prev: 'https://api.example.com/v1/1/orders?page=1&per_page=200',
      first: 'https://api.example.com/v1/1/orders?page=1&per_page=200',
      last: 'https://api.example.com/v1/1/orders?page=9&per_page=200',
    });
  });

  it('accepts unquoted and multiple rels, and nothing at all', () => {
    expect(parseLinkHeader('<https://h/x?page=2>; rel=next; title="n"')).toEqual({ next: 'https://h/x?page=2' });
    expect(parseLinkHeader('<https://h/x?page=9>; rel="last next"')).toEqual({ last: 'https://h/x?page=9', next: 'https://h/x?page=9' });
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader('')).toEqual({});
  });
});
