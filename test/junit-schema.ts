/** JUnit XML against the JUnit report schema (testsuites > testsuite > testcase; test/fixtures/junit.xsd). */
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

export async function expectValidJunit(xml: string): Promise<void> {
  const result = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: xml }],
    schema: [readFileSync('test/fixtures/junit.xsd', 'utf8')],
  });
  expect(result.errors.map((e) => e.message)).toEqual([]);
  expect(result.valid).toBe(true);
}
