/**
 * A member named the way a target in each language spells it (src/holder/member-spelling.ts), as
 * the usage error for a target that lacks a member the oracle needs names it.
 */
import { describe, expect, it } from 'vitest';
import { memberSpelling } from '../src/holder/member-spelling.ts';

describe('memberSpelling', () => {
  it("spells the protocol's names in each language", () => {
    expect(['acquire', 'storeKey', 'fenceStore'].map((m) => memberSpelling('python', m))).toEqual([
      'acquire',
      'store_key',
      'fence_store',
    ]);
    expect(['acquire', 'release', 'storeKey'].map((m) => memberSpelling('go', m))).toEqual([
      'Acquire',
      'Release',
      'StoreKey',
    ]);
    expect(['acquire', 'storeKey'].map((m) => memberSpelling('java', m))).toEqual(['acquire', 'storeKey']);
    expect(memberSpelling('node', 'storeKey')).toBe('storeKey');
  });
});
