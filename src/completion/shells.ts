/** The shells payorder writes completion scripts for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof COMPLETION_SHELLS)[number];
