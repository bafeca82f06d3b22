import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SearchSortForm } from './search-sort-form';

describe('the search and sort form of an administrators list', () => {
  it('searches the trimmed text on Enter and reports sort field and order changes', async () => {
    const onSearch = vi.fn();
    const onSort = vi.fn();
    render(
      <SearchSortForm
        idPrefix="user"
        label="Search users"
        placeholder="Name or email"
        initialSearch=""
        sortFields={[
          ['name', 'Name'],
          ['email', 'Email'],
        ]}
        sortField="name"
        sortOrder="asc"
        onSearch={onSearch}
        onSort={onSort}
      />,
    );
    await userEvent.type(screen.getByLabelText('Search users'), '  ada  {Enter}');
    expect(onSearch).toHaveBeenCalledWith('ada');
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'email');
    expect(onSort).toHaveBeenCalledWith({ sortField: 'email' });
    await userEvent.selectOptions(screen.getByLabelText('Order'), 'desc');
    expect(onSort).toHaveBeenCalledWith({ sortOrder: 'desc' });
    expect(screen.getByRole('search')).toBeInTheDocument();
  });
});
