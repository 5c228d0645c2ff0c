// Typed API errors. Routes throw these; app.ts turns them into the spec's error envelope in one place.

export type Fields = Record<string, string>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Fields,
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  envelope(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.fields && Object.keys(this.fields).length > 0) error.fields = this.fields;
    if (this.extra) Object.assign(error, this.extra);
    return { error };
  }
}

export const validationError = (fields: Fields, message = 'The request is invalid.') =>
  new ApiError(400, 'validation_error', message, fields);
export const unauthorized = (message = 'Missing or invalid API key.') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message = 'Resource not found.') => new ApiError(404, 'not_found', message);
