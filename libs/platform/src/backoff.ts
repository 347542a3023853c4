/** Wait before retrying a backend after `failures` failures in a row: 0.5 s doubling to 30 s, ±20 %. */
export function backoffMs(failures: number, random = Math.random): number {
  return Math.round(Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1)) * (0.8 + 0.4 * random()));
}
