import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, NetworkError, NotFoundError, RateLimitError, ServerError, ValidationError, errorFromResponse, networkError, parseErrorBody } from '../../../src/client/errors.js';
import { PartialFailureError, StoreError, UsageError } from '../../../src/errors.js';

const ORDERS = 'https://api.example.com/v1/123/orders';

describe('error classes', () => {
  it('carry the exit codes of DESIGN.md §7', () => {
    expect(new UsageError('x').exitCode).toBe(2);
    expect(new ApiError('x').exitCode).toBe(1);
    expect(new AuthError('x').exitCode).toBe(4);
    expect(new NotFoundError('x').exitCode).toBe(1);
    expect(new ValidationError('x').exitCode).toBe(2);
    expect(new RateLimitError('x').exitCode).toBe(1);
    expect(new ServerError('x').exitCode).toBe(1);
    expect(new NetworkError('x', 'h').exitCode).toBe(1);
    expect(new PartialFailureError('x').exitCode).toBe(3);
    for (const error of [new UsageError('x'), new AuthError('x'), new NetworkError('x', 'h'), new PartialFailureError('x')]) {
      expect(error).toBeInstanceOf(StoreError);
    }
    expect(new ValidationError('x')).toBeInstanceOf(ApiError);
    expect(new AuthError('x').name).toBe('AuthError');
  });
});

describe('parseErrorBody', () => {
  it('reads the spec shape {code, message, description, errors}', () => {
    expect(
      parseErrorBody({ code: 422, message: 'Unprocessable Entity', description: 'Invalid product', errors: { name: ["can't be blank"] } }),
    ).toEqual({ description: 'Invalid product', fieldErrors: { name: ["can't be blank"] } });
  });

  it('reads a bare field map, {error} and the OAuth shape, raw or parsed', () => {
    expect(parseErrorBody('{"name":["can\'t be blank"],"price":"must be a number"}')).toEqual({
      fieldErrors: { name: ["can't be blank"], price: ['must be a number'] },
    });
    expect(parseErrorBody({ error: 'Not Found' })).toEqual({ description: 'Not Found', fieldErrors: undefined });
    expect(parseErrorBody({ error: 'invalid_grant', error_description: 'The code has expired' }).description).toBe(
      'The code has expired',
    );
    expect(parseErrorBody('Service temporarily down')).toEqual({ description: 'Service temporarily down' });
    expect(parseErrorBody('<html><body>Bad gateway</body></html>')).toEqual({});
    expect(parseErrorBody('')).toEqual({});
    expect(parseErrorBody(undefined)).toEqual({});
  });

  it('reads the 2025-03 resources\' 400s (platform.md §10): the sentence in message, the fields under messages', async () => {
    const { fixture } = await import('../../helpers/replay-server.js');
    expect(parseErrorBody(fixture('error-400-fulfillment-order-move.json'))).toEqual({
      description: 'Fulfillment order 01HR2B4C6D8E0F2G4H6J8K0M2Q cannot change status from DISPATCHED to UNPACKED',
      fieldErrors: undefined,
    });
    expect(parseErrorBody(fixture('error-400-tracking-events-limit.json')).description).toBe('Tracking events has reached the limit');
    expect(parseErrorBody(fixture('error-400-fulfillment-order-validation.json')).fieldErrors).toEqual({
      status: ['status must be one of the following values: UNPACKED, PACKED, DISPATCHED, READY_FOR_PICKUP, DELIVERED'],
      'tracking_info.url': ['url must be a URL address'],
    });
    // The §1 envelope keeps its description (its message is the reason phrase).
    expect(parseErrorBody({ code: 404, message: 'Not Found', description: 'Last page is 0' }).description).toBe('Last page is 0');
  });
});

describe('errorFromResponse', () => {
  it('a 2025-03 400 says the store\'s sentence (exit 1); one naming fields is invalid input like a 422 (exit 2)', async () => {
    const { fixture } = await import('../../helpers/replay-server.js');
    const url = `${ORDERS}/871254198/fulfillment-orders/01HR2B4C6D8E0F2G4H6J8K0M2Q`;
    const move = errorFromResponse('PATCH', url, 400, fixture('error-400-fulfillment-order-move.json'));
    expect(move.exitCode).toBe(1);
    expect(move.message).toContain('(400 Bad Request, Fulfillment order 01HR2B4C6D8E0F2G4H6J8K0M2Q cannot change status from DISPATCHED to UNPACKED)');
    const invalid = errorFromResponse('PATCH', url, 400, fixture('error-400-fulfillment-order-validation.json'));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.message).toBe('Invalid request: status status must be one of the following values: UNPACKED, PACKED, DISPATCHED, READY_FOR_PICKUP, DELIVERED; tracking_info.url url must be a URL address.');
  });

  it('401 names the profile and the way out', () => {
    const error = errorFromResponse('GET', ORDERS, 401, { code: 401, description: 'Invalid access token' }, { profile: 'shop' });
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe('The store rejected the token of profile shop; run `store auth login --profile shop` to log in again.');
    expect(errorFromResponse('GET', ORDERS, 401, '').message).toBe('The store rejected the token; run `store auth login` to log in again.');
    expect(errorFromResponse('GET', ORDERS, 401, '', { profile: 'env', tokenFromEnv: true }).message).toBe(
      'The store rejected the token from the environment (STORE_TOKEN); set a valid token, or unset STORE_TOKEN and STORE_ID to use a profile.',
    );
  });

  it('403 names the missing scope when the description gives it', () => {
    const error = errorFromResponse('POST', `${ORDERS}/1/cancel`, 403, { description: 'Missing scope write_orders' }, { profile: 'shop' });
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe(
      "The store refused POST /v1/123/orders/1/cancel: the app of profile shop lacks the scope write_orders; scopes belong to the app's installation, so the store's admin must grant write_orders to the app (reinstall or update it), then the token works.",
    );
    expect(errorFromResponse('GET', ORDERS, 403, { error: 'Forbidden' }, { profile: 'shop' }).message).toBe(
      "The store refused GET /v1/123/orders (403 Forbidden): the app of profile shop may lack a scope; scopes belong to the app's installation in the store, not to the login.",
    );
  });

  it('404 names the resource and id from the path', () => {
    const base = 'https://api.example.com/v1/123';
    const message = (path: string, body: unknown = {}) => errorFromResponse('GET', `${base}${path}`, 404, body).message;
    expect(message('/orders/1234567890')).toBe('Order 1234567890 not found.');
    expect(message('/orders/1234567890/cancel')).toBe('Order 1234567890 not found.');
    expect(message('/products/12/variants/34')).toBe('Variant 34 of product 12 not found.');
    expect(message('/products/12/variants')).toBe('Product 12 not found.');
    expect(message('/categories/7')).toBe('Category 7 not found.');
    expect(message('/orders/1234567890/fulfillment-orders/01JD3V6Q9ZB5K2W3X4Y5Z6A7B8')).toBe(
      'Fulfillment order 01JD3V6Q9ZB5K2W3X4Y5Z6A7B8 of order 1234567890 not found.',
    );
    expect(message('/products/variants/custom-fields/3f2b8c1e-9d4a-4e7b-8c2d-1a2b3c4d5e6f')).toBe(
      'Custom field 3f2b8c1e-9d4a-4e7b-8c2d-1a2b3c4d5e6f not found.',
    );
    expect(message('/no/such/thing')).toBe('No such path GET /v1/123/no/such/thing.');
    expect(message('/orders?page=9', { description: 'Last page is 3' })).toBe('No such page for GET /v1/123/orders: the last page is 3.');
    expect(errorFromResponse('GET', `${base}/orders/5`, 404, {})).toBeInstanceOf(NotFoundError);
  });

  it('422 lists every field error in one sentence', () => {
    const error = errorFromResponse('POST', `${ORDERS}`, 422, {
      code: 422,
      message: 'Unprocessable Entity',
      description: 'Invalid order',
      errors: { name: ["can't be blank"], price: ['must be a number.', 'must be positive'] },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe("Invalid request: name can't be blank; price must be a number; price must be positive.");
    expect(error.fieldErrors).toEqual({ name: ["can't be blank"], price: ['must be a number.', 'must be positive'] });
    expect(errorFromResponse('POST', ORDERS, 422, { name: ["can't be blank"] }).message).toBe("Invalid request: name can't be blank.");
    expect(errorFromResponse('POST', ORDERS, 422, { description: 'The key has a wrong check digit.' }).message).toBe(
      'Invalid request: The key has a wrong check digit.',
    );
    expect(errorFromResponse('POST', ORDERS, 422, { errors: { base: ['Plan b allows 2 locations'] } }).message).toBe(
      'Invalid request: Plan b allows 2 locations.',
    );
    // A `base`-only note defers to the store's fuller description.
    expect(
      errorFromResponse('POST', ORDERS, 422, {
        description: 'The plan "b" of this store allows 2 locations',
        errors: { base: ['plan b allows at most 2 locations'] },
      }).message,
    ).toBe('Invalid request: The plan "b" of this store allows 2 locations.');
  });

  it('5xx, 429 and other statuses get their class and keep the details', () => {
    const server = errorFromResponse('GET', ORDERS, 503, '<html>down</html>', { headers: { 'retry-after': '5' } });
    expect(server).toBeInstanceOf(ServerError);
    expect(server.message).toBe('The store failed on GET /v1/123/orders (503 Service Unavailable).');
    expect(server.headers).toEqual({ 'retry-after': '5' });
    expect(server.body).toBe('<html>down</html>');

    const limited = errorFromResponse('GET', ORDERS, 429, '{"code":429}', { retryAfterSeconds: 2 });
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.body).toEqual({ code: 429 });
    expect(limited.message).toContain('try again in 2 s');

    const other = errorFromResponse('POST', ORDERS, 415, { description: 'Body must be JSON' });
    expect(other.constructor).toBe(ApiError);
    expect(other.message).toBe('The store refused POST /v1/123/orders (415 Unsupported Media Type, Body must be JSON).');
    expect(other).toMatchObject({ status: 415, method: 'POST', url: ORDERS, description: 'Body must be JSON' });
  });
});

describe('networkError', () => {
  it('names the host and the reason', () => {
    expect(networkError('http://127.0.0.1:4000/v1/1/orders', 'ECONNREFUSED').message).toBe(
      'Could not reach 127.0.0.1:4000: connection refused.',
    );
    expect(networkError('https://api.example.com/v1/1', 'ENOTFOUND').message).toBe('Could not reach api.example.com: host not found.');
    expect(networkError('https://api.example.com/v1/1', undefined, 'no response within 30 s').host).toBe('api.example.com');
  });
});
