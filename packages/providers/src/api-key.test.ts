import { describe, expect, it } from 'vitest';
import { isLocalBaseURL } from './api-key.js';

describe('isLocalBaseURL', () => {
  it.each([
    'http://127.0.0.1:11434/v1',
    'http://localhost:8080/v1',
    'http://LOCALHOST:1234',
    'http://[::1]:8000/v1',
    'http://10.1.2.3/v1',
    'http://192.168.1.20:1234/v1',
    'http://2130706433:8000/v1',
    'http://172.20.0.5:8000/v1',
    'http://gpu-box.local:8000/v1',
    'http://host.docker.internal:11434/v1',
  ])('treats %s as local', (url) => {
    expect(isLocalBaseURL(url)).toBe(true);
  });

  it.each([
    'https://models.example.com/v1',
    'http://172.32.0.1/v1',
    'http://8.8.8.8/v1',
    'http://127.0.0.1.example.com/v1',
    'http://localhost.example.com/v1',
    'not a url',
    '',
  ])('treats %s as remote (a key is required)', (url) => {
    expect(isLocalBaseURL(url)).toBe(false);
  });
});
