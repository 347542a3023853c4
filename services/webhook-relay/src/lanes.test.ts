import t from 'tap';
import { Lanes, type Ticket } from './lanes.js';

const ticket = (id: string, lane: string, position: number, dueAt: number): Ticket => ({ id, lane, position, partition: 0, dueAt });
const ids = (tickets: Ticket[]) => tickets.map((x) => x.id);
const never = () => false;

t.test('only a lane head is due; settling it makes the next one due at once', async (t) => {
  const lanes = new Lanes();
  lanes.add(ticket('a1', 'a', 1, 100));
  lanes.add(ticket('a2', 'a', 2, 100));
  lanes.add(ticket('b1', 'b', 3, 50));
  t.same(ids(lanes.takeDue(100, 10, never)), ['b1', 'a1'], 'earliest first, one per lane');
  t.same(ids(lanes.takeDue(100, 10, never)), [], 'taken heads are not handed out twice');
  lanes.add(ticket('a1', 'a', 1, 5_000)); // a1 failed: retry at 5000
  t.same(ids(lanes.takeDue(1_000, 10, never)), [], 'a2 waits behind the retry of a1');
  t.equal(lanes.nextDueAt(), 5_000);
  lanes.remove('a1', 5_001);
  t.same(ids(lanes.takeDue(5_001, 10, never)), ['a2']);
  lanes.remove('a2', 5_002);
  lanes.remove('b1', 5_002);
  t.equal(lanes.size, 0);
  t.equal(lanes.nextDueAt(), null);
});

t.test('a lane keeps log order whatever order tickets arrive in; busy lanes are skipped, not lost', async (t) => {
  const lanes = new Lanes();
  lanes.add(ticket('x3', 'x', 3, 0));
  lanes.add(ticket('x1', 'x', 1, 0));
  lanes.add(ticket('x2', 'x', 2, 0));
  lanes.add(ticket('y1', 'y', 4, 0));
  t.same(ids(lanes.takeDue(10, 10, (lane) => lane === 'x')), ['y1']);
  t.same(ids(lanes.takeDue(10, 10, never)), ['x1']);
  lanes.remove('x1', 10);
  t.same(ids(lanes.takeDue(10, 1, never)), ['x2']);
  t.same(lanes.followers('x').map((x) => x.id), ['x3']);
});

t.test('retain forgets the tickets of partitions handed away', async (t) => {
  const lanes = new Lanes();
  lanes.add({ ...ticket('p0', 'a', 1, 0), partition: 0 });
  lanes.add({ ...ticket('p1', 'b', 2, 0), partition: 1 });
  lanes.retain((x) => x.partition === 1);
  t.same(ids(lanes.takeDue(10, 10, never)), ['p1']);
  t.notOk(lanes.has('p0'));
});

t.test('the heap hands out thousands of heads in due order', async (t) => {
  const lanes = new Lanes();
  const dues = Array.from({ length: 5_000 }, (_, i) => (i * 7919) % 5_000);
  dues.forEach((due, i) => lanes.add(ticket(`t${i}`, `l${i}`, i, due)));
  const taken = lanes.takeDue(10_000, 10_000, never).map((x) => x.dueAt);
  t.equal(taken.length, 5_000);
  t.ok(taken.every((due, i) => i === 0 || taken[i - 1]! <= due), 'non-decreasing');
});
