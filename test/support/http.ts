/** Response bodies in tests are checked field by field, so they are typed loosely on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = async (res: Response): Promise<any> => res.json();
