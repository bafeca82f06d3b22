/**
 * Categories (seed 000 §3 "Category", §4 "Category status"). Every category and the signed-in
 * user's selection are separate lists with separate statuses: one failing never marks the other
 * failed, and a fetch of one is never skipped because of the other. The selection belongs to the
 * user and goes when they do (`session/userChanged`).
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  GetCategoryAllCategoryApiResponse,
  GetCategoryCheckSlugApiResponse,
  GetCategoryUserSelectedApiResponse,
  PatchCategoryByIdApiResponse,
  PostCategoryApiResponse,
  PostCategorySeedApiResponse,
  PostCategoryUsersByUserIdCategoriesApiResponse,
} from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import type { Category } from '@/types/entities';

export const CATEGORY_FALLBACK = {
  fetch: 'Failed to fetch categories',
  fetchSelected: 'Failed to fetch user-selected categories',
  create: 'Failed to create category',
  update: 'Failed to update category',
  delete: 'Failed to delete category',
  assign: 'Failed to assign categories',
  seed: 'Failed to seed categories',
  checkSlug: 'Failed to check slug availability',
} as const;

export type CategoryStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface CategoriesState {
  categories: Category[];
  userSelectedCategories: Category[];
  selectedCategory: Category | null;
  /** Status of `categories` (every category). */
  status: CategoryStatus;
  error: string | null;
  /** Status of `userSelectedCategories`, and the request whose answer it waits for. */
  userSelectedStatus: CategoryStatus;
  userSelectedError: string | null;
  userSelectedRequestId: string | null;
  /** The live slug check: which slug it is about, whether it is running, and its answer. */
  slugCheck: { slug: string | null; loading: boolean; isAvailable: boolean | null };
}

export const initialCategoriesState: CategoriesState = {
  categories: [],
  userSelectedCategories: [],
  selectedCategory: null,
  status: 'idle',
  error: null,
  userSelectedStatus: 'idle',
  userSelectedError: null,
  userSelectedRequestId: null,
  slugCheck: { slug: null, loading: false, isAvailable: null },
};

type State = { categories: CategoriesState };
type Config = { state: State; rejectValue: string };

/** Skipped when data already exists and the last status was not failed. */
export const fetchCategories = createAsyncThunk<Category[], void, Config>(
  'categories/fetchAll',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<GetCategoryAllCategoryApiResponse>('/category/all-category', CATEGORY_FALLBACK.fetch);
      return r?.categories ?? [];
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.fetch));
    }
  },
  {
    condition: (_, { getState }) => {
      const { categories, status } = getState().categories;
      return !(categories.length > 0 && status !== 'failed');
    },
  },
);

/**
 * `POST /category/seed` (administrators): adds the default categories that are missing, then
 * reads every category again. Gives the server's message and the new list.
 */
export const seedCategories = createAsyncThunk<{ message: string; categories: Category[] }, void, Config>(
  'categories/seed',
  async (_, { rejectWithValue }) => {
    let message: string;
    try {
      const r = await http.post<PostCategorySeedApiResponse>('/category/seed', {}, CATEGORY_FALLBACK.seed);
      message = r?.message || 'Default categories added';
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.seed));
    }
    try {
      const r = await http.get<GetCategoryAllCategoryApiResponse>('/category/all-category', CATEGORY_FALLBACK.fetch);
      return { message, categories: r?.categories ?? [] };
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.fetch));
    }
  },
);

export const fetchUserSelectedCategories = createAsyncThunk<Category[], void, Config>(
  'categories/fetchUserSelected',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<GetCategoryUserSelectedApiResponse>('/category/user-selected', CATEGORY_FALLBACK.fetchSelected);
      return r?.categories ?? [];
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.fetchSelected));
    }
  },
  {
    condition: (_, { getState }) => {
      const { userSelectedCategories, userSelectedStatus } = getState().categories;
      if (userSelectedStatus === 'loading') return false;
      return !(userSelectedCategories.length > 0 && userSelectedStatus !== 'failed');
    },
  },
);

export const createCategory = createAsyncThunk<Category, { name: string; slug: string; description: string }, Config>(
  'categories/create',
  async (body, { rejectWithValue }) => {
    try {
      const r = await http.post<PostCategoryApiResponse>('/category/', body, CATEGORY_FALLBACK.create);
      return r.category;
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.create));
    }
  },
);

export const updateCategory = createAsyncThunk<Category, { id: string; changes: Partial<Category> }, Config>(
  'categories/update',
  async ({ id, changes }, { rejectWithValue }) => {
    try {
      const r = await http.patch<PatchCategoryByIdApiResponse>(`/category/${encodeURIComponent(id)}`, changes, CATEGORY_FALLBACK.update);
      return r.category;
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.update));
    }
  },
);

export const deleteCategory = createAsyncThunk<string, string, Config>('categories/delete', async (id, { rejectWithValue }) => {
  try {
    await http.delete(`/category/${encodeURIComponent(id)}`, CATEGORY_FALLBACK.delete);
    return id;
  } catch (e) {
    return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.delete));
  }
});

export const assignCategories = createAsyncThunk<Category[], { userId: string; categoryIds: string[] }, Config>(
  'categories/assign',
  async ({ userId, categoryIds }, { rejectWithValue }) => {
    try {
      const r = await http.post<PostCategoryUsersByUserIdCategoriesApiResponse>(
        `/category/users/${encodeURIComponent(userId)}/categories`,
        { categoryIds, newCategories: [] },
        CATEGORY_FALLBACK.assign,
      );
      return r?.categories ?? [];
    } catch (e) {
      return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.assign));
    }
  },
);

export const checkSlug = createAsyncThunk<boolean, string, Config>('categories/checkSlug', async (slug, { rejectWithValue }) => {
  try {
    const r = await http.get<GetCategoryCheckSlugApiResponse>('/category/check-slug', CATEGORY_FALLBACK.checkSlug, { slug, type: 'category' });
    return Boolean(r?.isAvailable);
  } catch (e) {
    return rejectWithValue(errorMessage(e, CATEGORY_FALLBACK.checkSlug));
  }
});

const replace = (list: Category[], c: Category) => list.map((x) => (x._id === c._id ? c : x));

const categoriesSlice = createSlice({
  name: 'categories',
  initialState: initialCategoriesState,
  reducers: {
    categorySelected(state, action: PayloadAction<Category | null>) {
      state.selectedCategory = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchCategories.pending, (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addCase(fetchCategories.fulfilled, (state, action) => {
        state.status = 'succeeded';
        state.categories = action.payload;
      })
      .addCase(seedCategories.fulfilled, (state, action) => {
        state.status = 'succeeded';
        state.categories = action.payload.categories;
      })
      .addCase(fetchCategories.rejected, (state, action) => {
        state.status = 'failed';
        state.error = action.payload ?? CATEGORY_FALLBACK.fetch;
      })
      .addCase(fetchUserSelectedCategories.pending, (state, action) => {
        state.userSelectedStatus = 'loading';
        state.userSelectedError = null;
        state.userSelectedRequestId = action.meta.requestId;
      })
      .addCase(fetchUserSelectedCategories.fulfilled, (state, action) => {
        // An answer for a user who has since signed out (or an older request) is dropped.
        if (state.userSelectedRequestId !== action.meta.requestId) return;
        state.userSelectedRequestId = null;
        state.userSelectedStatus = 'succeeded';
        state.userSelectedCategories = action.payload;
      })
      .addCase(fetchUserSelectedCategories.rejected, (state, action) => {
        if (action.meta.condition || state.userSelectedRequestId !== action.meta.requestId) return;
        state.userSelectedRequestId = null;
        state.userSelectedStatus = 'failed';
        state.userSelectedError = action.payload ?? CATEGORY_FALLBACK.fetchSelected;
      })
      .addCase(createCategory.fulfilled, (state, action) => {
        state.categories.push(action.payload);
        state.selectedCategory = action.payload;
      })
      .addCase(updateCategory.fulfilled, (state, action) => {
        state.categories = replace(state.categories, action.payload);
        state.userSelectedCategories = replace(state.userSelectedCategories, action.payload);
      })
      .addCase(deleteCategory.fulfilled, (state, action) => {
        state.categories = state.categories.filter((c) => c._id !== action.payload);
        state.userSelectedCategories = state.userSelectedCategories.filter((c) => c._id !== action.payload);
        if (state.selectedCategory?._id === action.payload) state.selectedCategory = null;
      })
      .addCase(assignCategories.fulfilled, (state, action) => {
        state.userSelectedCategories = action.payload;
        state.userSelectedStatus = 'succeeded';
      })
      .addCase(checkSlug.pending, (state, action) => {
        state.slugCheck = { slug: action.meta.arg, loading: true, isAvailable: null };
      })
      .addCase(checkSlug.fulfilled, (state, action) => {
        // An answer about a slug typed before is dropped.
        if (state.slugCheck.slug !== action.meta.arg) return;
        state.slugCheck = { slug: action.meta.arg, loading: false, isAvailable: action.payload };
      })
      // A failed slug check sets isAvailable to false.
      .addCase(checkSlug.rejected, (state, action) => {
        if (state.slugCheck.slug !== action.meta.arg) return;
        state.slugCheck = { slug: action.meta.arg, loading: false, isAvailable: false };
      })
      .addCase(sessionUserChanged, (state) => {
        state.userSelectedCategories = [];
        state.userSelectedStatus = 'idle';
        state.userSelectedError = null;
        state.userSelectedRequestId = null;
        state.selectedCategory = null;
      })
      .addMatcher(
        (action) =>
          [createCategory.rejected.type, updateCategory.rejected.type, deleteCategory.rejected.type, assignCategories.rejected.type].includes(
            (action as { type: string }).type,
          ),
        (state, action: PayloadAction<string | undefined>) => {
          state.error = action.payload ?? null;
        },
      );
  },
});

export const { categorySelected } = categoriesSlice.actions;
export const categoriesReducer = categoriesSlice.reducer;
export const selectCategories = (state: State) => state.categories;
