import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { router } from './router';
import { takeInitialData } from './initial-data';
import { setupStore } from './store';

const store = setupStore();
takeInitialData(store);

export function App() {
  return (
    <Provider store={store}>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </Provider>
  );
}
