import { defineConfig } from 'vitest/config';
import { packageTestConfig, sharedWorkerModules } from '../../vitest.shared.ts';

export default defineConfig(packageTestConfig(sharedWorkerModules));
