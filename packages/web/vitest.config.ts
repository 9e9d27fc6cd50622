import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

export default defineConfig(
  packageTestConfig({
    // The page's own logic (no DOM) is tested beside it too.
    test: { include: ['page/src/**/*.test.ts'] },
  }),
);
