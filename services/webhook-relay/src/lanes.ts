import type { Delivery } from './deliveries.js';

/** What the dispatcher keeps in memory of a pending delivery: enough to order and schedule it. */
export interface Ticket {
  id: string;
  lane: string;
  /** Log position of the delivery's event: a lane's tickets go out in this order. */
  position: number;
  partition: number;
  /** Epoch ms from which the ticket may be sent (only the lane's head is ever scheduled). */
  dueAt: number;
  /** The stored delivery when the dispatcher already holds it, so sending it needs no read. */
  doc?: Delivery;
}

interface Entry {
  dueAt: number;
  ticket: Ticket;
}

/**
 * The pending deliveries of the partitions a relay owns, by lane (one comment to one webhook),
 * with the lanes' heads in a heap by due time. The store stays the record of every delivery;
 * this is its schedule, so that finding the next delivery to send is O(log n) instead of a
 * query per attempt. A lane's head is the only ticket of the lane that is ever due, so an
 * endpoint sees a comment's events in log order even while one of them waits for a retry.
 */
export class Lanes {
  private readonly lanes = new Map<string, Ticket[]>();
  private readonly known = new Map<string, Ticket>();
  private readonly heap: Entry[] = [];
  /** A ticket's one valid heap entry: any other entry for it is stale and skipped when reached. */
  private readonly live = new WeakMap<Ticket, Entry>();

  get size() {
    return this.known.size;
  }

  has(id: string) {
    return this.known.has(id);
  }

  get(id: string) {
    return this.known.get(id);
  }

  /** Adds a ticket (or moves a known one's due time); the lane keeps log order. */
  add(ticket: Ticket) {
    const existing = this.known.get(ticket.id);
    if (existing) {
      existing.dueAt = ticket.dueAt;
      existing.doc = ticket.doc;
      if (this.isHead(existing)) this.push(existing);
      return;
    }
    this.known.set(ticket.id, ticket);
    const lane = this.lanes.get(ticket.lane);
    if (!lane) {
      this.lanes.set(ticket.lane, [ticket]);
      this.push(ticket);
      return;
    }
    // Nearly always the newest event of its lane: the search runs from the end.
    let at = lane.length;
    while (at > 0 && lane[at - 1]!.position > ticket.position) at--;
    lane.splice(at, 0, ticket);
    if (at === 0) this.push(ticket);
  }

  /** The lane's other tickets, after its head. */
  followers(lane: string): Ticket[] {
    return this.lanes.get(lane)?.slice(1) ?? [];
  }

  /** Settles a ticket: the next one of its lane becomes the head and is due at once. */
  remove(id: string, now: number) {
    const ticket = this.known.get(id);
    if (!ticket) return;
    this.known.delete(id);
    const lane = this.lanes.get(ticket.lane)!;
    const at = lane.indexOf(ticket);
    lane.splice(at, 1);
    if (lane.length === 0) this.lanes.delete(ticket.lane);
    else if (at === 0) {
      const head = lane[0]!;
      head.dueAt = Math.min(head.dueAt, now);
      this.push(head);
    }
  }

  /** Forgets every ticket that `keep` refuses (partitions handed to another relay). */
  retain(keep: (ticket: Ticket) => boolean) {
    for (const ticket of [...this.known.values()]) if (!keep(ticket)) this.remove(ticket.id, Number.POSITIVE_INFINITY);
  }

  /** Takes the due lane heads, earliest first, skipping the lanes `busy` names. */
  takeDue(now: number, max: number, busy: (lane: string) => boolean): Ticket[] {
    const taken: Ticket[] = [];
    const skipped: Entry[] = [];
    while (taken.length < max && this.heap.length && this.heap[0]!.dueAt <= now) {
      const entry = this.pop();
      const { ticket } = entry;
      if (!this.valid(entry)) continue;
      if (busy(ticket.lane)) skipped.push(entry);
      else taken.push(ticket);
    }
    for (const entry of skipped) this.pushEntry(entry);
    return taken;
  }

  /** Epoch ms of the earliest due head, or null when nothing is pending. */
  nextDueAt(): number | null {
    while (this.heap.length) {
      if (this.valid(this.heap[0]!)) return this.heap[0]!.dueAt;
      this.pop();
    }
    return null;
  }

  // Entries are never updated in place: a due time that moves gets a new entry.
  private valid(entry: Entry) {
    return this.live.get(entry.ticket) === entry && this.known.get(entry.ticket.id) === entry.ticket && this.isHead(entry.ticket);
  }

  private isHead(ticket: Ticket) {
    return this.lanes.get(ticket.lane)?.[0] === ticket;
  }

  private push(ticket: Ticket) {
    const entry = { dueAt: ticket.dueAt, ticket };
    this.live.set(ticket, entry);
    this.pushEntry(entry);
  }

  private pushEntry(entry: Entry) {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.dueAt <= entry.dueAt) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && heap[right]!.dueAt < heap[left]!.dueAt ? right : left;
        if (heap[child]!.dueAt >= last.dueAt) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}
