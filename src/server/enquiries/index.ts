// The enquiries inbox: the public form's submissions and the staff side.
export { submitEnquiry } from './submit.ts';
export { listEnquiries, setEnquiryStatus, countNewEnquiries } from './store.ts';
