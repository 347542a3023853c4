import t from 'tap';
import { mentionsIn } from './payloads.js';
import { retryAfterMs, retryDelay } from './deliveries.js';

t.test('mentions are the @email addresses written in the text, once each', async (t) => {
  t.same(mentionsIn('cc @Dana@agency.test and @dana@agency.test, also (@ops@site.example.com).'), [{ email: 'dana@agency.test' }, { email: 'ops@site.example.com' }]);
  t.same(mentionsIn('mail me at dana@agency.test'), [], 'an address without @ in front is not a mention');
  t.same(mentionsIn('@everyone'), []);
});

t.test('retry waits follow the schedule with ±10 % jitter; Retry-After in seconds or as a date', async (t) => {
  const schedule = [5_000, 30_000];
  t.equal(retryDelay(schedule, 0, () => 0), 4_500);
  t.equal(retryDelay(schedule, 0, () => 1), 5_500);
  t.equal(retryDelay(schedule, 1, () => 0.5), 30_000);
  t.equal(retryDelay(schedule, 2), null, 'past the schedule: dead-lettered');
  const now = Date.parse('2026-11-21T10:00:00Z');
  t.equal(retryAfterMs('120', now, 3_600_000), 120_000);
  t.equal(retryAfterMs('Sat, 21 Nov 2026 10:01:00 GMT', now, 3_600_000), 60_000);
  t.equal(retryAfterMs('999999', now, 3_600_000), 3_600_000, 'capped');
  t.equal(retryAfterMs('soon', now, 3_600_000), null);
  t.equal(retryAfterMs(undefined, now, 3_600_000), null);
});
