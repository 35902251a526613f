/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves this machine. Takes a URL's hostname (brackets allowed). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // URL hostnames come normalised: ::1 for any spelling of it, ::ffff:7f00:1 for an IPv4-mapped 127.0.0.1.
  if (host === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
