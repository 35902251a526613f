import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser; resolves false when there is none to open (headless machine, no
 * opener installed). The URL is printed by the caller either way, so failure only costs a copy-paste.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<boolean> {
  let command: string;
  let args: string[];
  if (platform === 'darwin') {
    command = 'open';
    args = [url];
  } else if (platform === 'win32') {
    // `start` is a cmd built-in; '^' escapes the '&' of the query string, '""' is the window title.
    command = 'cmd';
    args = ['/c', 'start', '""', url.replace(/&/g, '^&')];
  } else {
    // Without a display, xdg-open would start a text browser inside the very terminal running the CLI.
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return Promise.resolve(false);
    command = 'xdg-open';
    args = [url];
  }
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, {
        env,
        stdio: 'ignore',
        detached: true,
        windowsVerbatimArguments: platform === 'win32',
      });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
