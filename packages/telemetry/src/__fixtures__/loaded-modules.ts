// Creates telemetry with the environment given as JSON in argv[2], then prints whether any
// OpenTelemetry module was loaded into this process.
import { createRequire } from 'node:module';
import { createTelemetry } from '../index.js';

const telemetry = await createTelemetry({ environment: JSON.parse(process.argv[2] ?? '{}') });
const cache = createRequire(import.meta.url).cache;
const loaded = Object.keys(cache).filter((path) => path.includes('@opentelemetry'));
console.log(JSON.stringify({ enabled: telemetry.enabled, openTelemetryModules: loaded.length }));
await telemetry.shutdown();
