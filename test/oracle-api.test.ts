// An oracle as an assertion in a project's own vitest suite (docs/settle-and-prove.md, "From your own tests").
import { describe, test } from 'vitest';
import { expectOracle } from 'lock-oracles/vitest';

describe('lock helpers under V313 (lease shorter than the work)', () => {
  test('the fenced job PASSes', async () => {
    await expectOracle('V313', 'docs/examples/job-shape.target.ts').toPass();
  });

  test('the job that never renews its lease FAILs', async () => {
    await expectOracle('V313', 'targets/redis/ioredis/lease-no-renewal.ts', { params: { steps: 4 } }).toFail();
  });
});
