import { useEffect } from 'react';
import { toast } from '@/lib/toast';
import { SOCKET_MESSAGES } from './socket-middleware';

/** 'Offline. Check your connection.' / 'Back online.' as the browser loses and regains the network. */
export function useConnectivityToasts(): void {
  useEffect(() => {
    const offline = () => toast.error(SOCKET_MESSAGES.offline);
    const online = () => toast.success(SOCKET_MESSAGES.online);
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);
}
