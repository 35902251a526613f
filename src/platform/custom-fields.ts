/** The value types of a variant custom field (docs/platform.md §7), used by the custom-fields commands and the sandbox. */
export const CUSTOM_FIELD_TYPES = ['text', 'numeric', 'date', 'text_list'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
