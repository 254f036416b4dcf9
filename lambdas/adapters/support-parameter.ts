/** The SSM parameter in which the ops stack (lib/ops-stack.ts) keeps a stage's handler environment (names and ARNs,
 * no secrets), so the support tool builds the same Deps as the functions from nothing but the stage's name. */
export const supportEnvironmentParameterName = (stage: string): string => `/loopcast/${stage}/support/environment`;
