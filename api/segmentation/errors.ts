/** The segmentation domain's error type (one class, a string code union; mapped to API errors elsewhere). */
export type SegmentationErrorCode =
  | 'INVALID_SEGMENT'
  | 'INVALID_OPTIONS'
  | 'INVALID_TIME_ZONE'
  | 'SEGMENT_TOO_COMPLEX'
  | 'TOO_MANY_FILTERS_IN_GROUP'
  | 'REQUEST_TOO_LARGE'
  | 'TOO_MANY_SEARCHES'
  | 'LLM_FAILED';

export class SegmentationError extends Error {
  override readonly name = 'SegmentationError';
  constructor(
    readonly code: SegmentationErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isSegmentationError(e: unknown, code?: SegmentationErrorCode): e is SegmentationError {
  return e instanceof SegmentationError && (code === undefined || e.code === code);
}
