export const REGISTER_STATUSES = ['live', 'degraded', 'paused'] as const;
export type RegisterStatus = (typeof REGISTER_STATUSES)[number];
