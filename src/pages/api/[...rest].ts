// Unknown API paths answer JSON, not the HTML 404 page.
import { errorResponse } from '../../server/http.ts';

export const ALL = () => errorResponse(404, 'No such API endpoint');
