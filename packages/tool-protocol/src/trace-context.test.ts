import { describe, expect, it } from 'vitest';
import { isTraceparent, isTracestate, traceContextEnvironment } from './index.js';

const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceContextEnvironment', () => {
  it('hands a valid context to a child process as TRACEPARENT and TRACESTATE', () => {
    expect(traceContextEnvironment({ traceparent: parent, tracestate: 'vendor=abc,other=1' })).toEqual({
      TRACEPARENT: parent,
      TRACESTATE: 'vendor=abc,other=1',
    });
  });

  it('passes nothing for a malformed traceparent, and drops a malformed tracestate', () => {
    expect(traceContextEnvironment({ traceparent: '00-zz-yy-01' })).toEqual({});
    expect(traceContextEnvironment({ traceparent: `${parent}\nBASH_ENV=x` })).toEqual({});
    expect(traceContextEnvironment({ traceparent: parent, tracestate: 'a=1\nb=2' })).toEqual({ TRACEPARENT: parent });
    expect(traceContextEnvironment(undefined)).toEqual({});
  });
});

describe('isTraceparent', () => {
  it('refuses all-zero ids, uppercase hex and other versions', () => {
    expect(isTraceparent(parent)).toBe(true);
    expect(isTraceparent('00-00000000000000000000000000000000-b7ad6b7169203331-01')).toBe(false);
    expect(isTraceparent('00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01')).toBe(false);
    expect(isTraceparent(parent.toUpperCase())).toBe(false);
    expect(isTraceparent(`01${parent.slice(2)}`)).toBe(false);
  });
});

describe('isTracestate', () => {
  it('bounds the size', () => {
    expect(isTracestate('a=1')).toBe(true);
    expect(isTracestate(`a=${'x'.repeat(600)}`)).toBe(false);
  });
});
