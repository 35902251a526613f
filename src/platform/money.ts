/** Money amounts are below 10^13: the store's decimal column holds 13 whole digits (and two decimals). */
export const MAX_MONEY_DIGITS = 13;
export const MONEY_LIMIT = 10 ** MAX_MONEY_DIGITS;
