/**
 * A target member's name as a target in each language spells it (docs/holder-protocol.md, "Names"):
 * the protocol's (and Node's, and Java's methods') camelCase `storeKey`, Python's snake_case
 * `store_key`, Go's exported `StoreKey`. Messages that name a member to a user name it the way their
 * own file must.
 */
import type { HolderLanguage } from './holder-language.ts';

export function memberSpelling(language: HolderLanguage, member: string): string {
  if (language === 'python') return member.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  if (language === 'go') return member.charAt(0).toUpperCase() + member.slice(1);
  return member;
}
