export { createServiceClient, type ServiceClientOptions } from './client';
export { ServiceError, isServiceError, shapeError, type ServiceErrorCode, type ServiceErrorFacts } from './errors';
export { sniffImageMime, toDataUrl, toImageInput } from './image-input';
export { isLoopbackHost, resolveBaseUrl } from './base-url';
export type { ExecuteOutcome, ExecutionPoll, RequestOptions, ServiceClient } from './types';
export type { RetryOptions } from './retry';
