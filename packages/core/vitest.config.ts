import { defineConfig } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

const config = packageTestConfig();
// Vitest hands these conditions to Node itself; OpenTelemetry's `module` condition points at ES
// builds with extensionless imports that Node cannot load, so tests resolve as Node does.
for (const resolve of [config.resolve, config.ssr?.resolve])
  if (resolve?.conditions) resolve.conditions = resolve.conditions.filter((condition) => condition !== 'module');

export default defineConfig(config);
