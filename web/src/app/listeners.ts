/**
 * Side effects that follow actions (timers, refetches), written with Redux Toolkit's listener
 * middleware. Each feature registers its own with an `add...Listeners(startListening)` function;
 * `setupStore` makes one listener middleware per store and calls them all.
 */
import type { ThunkDispatch, TypedStartListening, UnknownAction } from '@reduxjs/toolkit';
import type { RootState } from './store';

export type AppStartListening = TypedStartListening<RootState, ThunkDispatch<RootState, unknown, UnknownAction>>;
