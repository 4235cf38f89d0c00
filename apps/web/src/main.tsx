import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SessionProvider } from './api/session';
import { App } from './app';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <App />
    </SessionProvider>
  </StrictMode>,
);
