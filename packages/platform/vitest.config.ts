import { defineConfig } from 'vitest/config';
import { packageTestConfig, withPostgres } from '../../vitest.shared.ts';

export default defineConfig(packageTestConfig(withPostgres));
