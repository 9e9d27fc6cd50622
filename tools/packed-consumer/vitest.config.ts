import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

// Packing, installing and compiling take a while on a loaded machine: one generous budget each.
export default defineConfig(packageTestConfig({ test: { testTimeout: 240_000, hookTimeout: 300_000 } }));
