import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../../src/api/custom-fields.js';
import { NotFoundError } from '../../../../src/client/errors.js';
import { checkFieldValue, resolveCustomField } from '../../../../src/services/catalog/variants.js';

const field = (over: Partial<CustomField>): CustomField => ({ id: 'f1', name: 'Material', value_type: 'text', values: [], ...over });

describe('custom field values', () => {
  it('checks values against the field type before sending', () => {
    expect(checkFieldValue(field({ value_type: 'numeric' }), '12,5')).toBe('12.5');
    expect(() => checkFieldValue(field({ value_type: 'numeric' }), 'doce')).toThrow(/Material is numeric/);
    expect(checkFieldValue(field({ value_type: 'date' }), '2026-11-01')).toBe('2026-11-01');
    expect(() => checkFieldValue(field({ value_type: 'date' }), '01/11/2026')).toThrow(/is a date/);
    expect(checkFieldValue(field({ value_type: 'text_list', values: ['Lino'] }), 'Lino')).toBe('Lino');
    expect(() => checkFieldValue(field({ value_type: 'text_list', values: ['Lino'] }), 'Seda')).toThrow(/allows only "Lino"/);
  });

  it('finds a field by id or name', () => {
    const fields = [field({}), field({ id: 'f2', name: 'Temporada' })];
    expect(resolveCustomField(fields, 'temporada').id).toBe('f2');
    expect(resolveCustomField(fields, 'f1').name).toBe('Material');
    expect(() => resolveCustomField(fields, 'Color')).toThrow(NotFoundError);
  });
});
