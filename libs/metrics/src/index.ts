export const ping = (): string => "pong";
