// Post revisions: the editor's history (list, compare, restore) and the dialogs the
// administrators' reports and appeals open (a reported or appealed version, the changes since it).
export { RevisionHistoryDialog, RESTORE_QUESTION } from './components/revision-history';
export { RevisionCompare } from './components/revision-compare';
export { CompareDialog, RevisionDialog } from './components/revision-dialogs';
export { changeLabel, reasonLabel, REASON_LABELS } from './revision-labels';
export type { RevisionSummary, Comparison } from './revision-types';
