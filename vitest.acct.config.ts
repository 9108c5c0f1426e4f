import base from '/work/main/vitest.config.ts';
import { mergeConfig } from 'vitest/config';
export default mergeConfig(base, { test: { setupFiles: ['/tmp/pidlog-setup.ts'] } });
