import { z } from 'zod';

/** decisions.md: lists take `limit` (default 50, at most 200) and an opaque `cursor`. */
export const Pagination = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(500).optional(),
});
