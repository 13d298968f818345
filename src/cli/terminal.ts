/**
 * Whether a live ink view can draw: stdout is a terminal and no CI variable is set. Under CI
 * ink draws only its last frame at exit, so a "live" view would look frozen; plain output is
 * right there instead (the same test ink itself makes).
 */
export function canDrawLive(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!stream.isTTY) return false
  const ci = env.CI !== undefined || env.CONTINUOUS_INTEGRATION !== undefined || Object.keys(env).some((k) => k.startsWith('CI_'))
  return !ci || env.CI === '0' || env.CI === 'false'
}
