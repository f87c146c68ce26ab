export declare const MEMORY_NODE_FLAGS: string[];
export declare const MEMORY_ENV: Record<string, string>;
export declare const GLIBC_MALLOC_ENV: { MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string };
export declare function hasMemoryProfile(env?: NodeJS.ProcessEnv, execArgv?: string[]): boolean;
export declare function relaunchWithMemoryProfile(): Promise<number | null>;
