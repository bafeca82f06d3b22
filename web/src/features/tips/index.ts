export { TipsStudio } from './components/tips-studio';
export { SentTips } from './components/sent-tips';
export { selectTipsReceivedLive } from './tips-slice';
export type { Tip } from './tips-api';
