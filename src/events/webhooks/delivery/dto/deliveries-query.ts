import { z } from 'zod';
import { pageQuery } from '../../../../platform/pagination';
import { windowInOrder } from '../../../../platform/validation/text-input';
import { DELIVERY_STATES } from './delivery.dto';

// Apart from the DTOs: the pages type-check against those, and the cursor code is server-only (Buffer).
export const deliveriesQuerySchema = z
  .object({
    ...pageQuery,
    state: z.enum(DELIVERY_STATES, { error: `one of ${DELIVERY_STATES.join(', ')}` }).optional(),
  })
  .strict()
  .superRefine(windowInOrder);
