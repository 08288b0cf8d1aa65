import { describe, expect, it } from 'vitest';
import { formatDuration, formatNumber } from './format.js';

describe('numbers in labels', () => {
  it('writes six significant digits without trailing zeros, like %g', () => {
    expect(formatNumber(0.5)).toBe('0.5');
    expect(formatNumber(2)).toBe('2');
    expect(formatNumber(123456)).toBe('123456');
    expect(formatNumber(1234567)).toBe('1.23457e+06');
    expect(formatNumber(0.0001)).toBe('0.0001');
    expect(formatNumber(0.00001)).toBe('1e-05');
    expect(formatNumber(3.14159265)).toBe('3.14159');
    expect(formatNumber(-2.5)).toBe('-2.5');
    expect(formatNumber(999999.5)).toBe('1e+06');
    expect(formatNumber(1e100)).toBe('1e+100');
  });
});

describe('durations in labels', () => {
  it('writes hours, minutes and seconds, and sub-second units', () => {
    expect(formatDuration(0)).toBe('0');
    expect(formatDuration(30)).toBe('30s');
    expect(formatDuration(90)).toBe('1m30s');
    expect(formatDuration(3600)).toBe('1h');
    expect(formatDuration(5400)).toBe('1h30m');
    expect(formatDuration(1.5)).toBe('1.5s');
    expect(formatDuration(60.5)).toBe('1m0.5s');
    expect(formatDuration(0.25)).toBe('250ms');
    expect(formatDuration(0.0015)).toBe('1.5ms');
    expect(formatDuration(0.0000005)).toBe('500ns');
    expect(formatDuration(0.000002)).toBe('2us');
    expect(formatDuration(-30)).toBe('-30s');
  });
});
