import { Modal } from '@/components/modal';
import { SearchBox } from './search-box';

/** Mobile search: closes on Escape or its close button; page scrolling is locked while open. */
export function SearchModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Search" labelledBy="search-modal-title" onClose={onClose} className="modal--search">
      <SearchBox autoFocus onDone={onClose} />
    </Modal>
  );
}
