export const Select = 1;
