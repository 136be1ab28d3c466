export const Input = 1;
