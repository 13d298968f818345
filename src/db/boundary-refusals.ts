/**
 * How often this process refused scoped work at the tenant boundary, for the worker's metrics:
 * transactions refused because the app login has role-level settings, and scoped callbacks that
 * ended (or tried to end) their transaction. Process-wide, as the pools are.
 */
export const boundaryRefusals = { loginSettings: 0, transactionEscapes: 0 }
