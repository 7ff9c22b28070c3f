import { describe, expect, it } from 'vitest';
import { guessColumns } from './columns.js';

const guess = (headers: string[]) => Object.fromEntries(headers.map((h, i) => [h, guessColumns(headers)[i]]));

describe('column guessing from CRM export headers', () => {
  it('HubSpot', () => {
    expect(guess(['Record ID', 'First Name', 'Last Name', 'Email', 'Associated Company', 'Lifecycle Stage', 'Lead Status', 'Recent Deal Close Date', 'Recent Deal Amount', 'Total Revenue', 'City', 'State/Region', 'Country/Region', 'Create Date', 'Marketing emails opened'])).toEqual({
      'Record ID': 'id', 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'email', 'Associated Company': 'company', 'Lifecycle Stage': 'lifecycleStage',
      'Lead Status': null, 'Recent Deal Close Date': 'lastPurchaseDate', 'Recent Deal Amount': 'lastPurchaseAmount', 'Total Revenue': 'lifetimeValue',
      City: 'city', 'State/Region': 'state', 'Country/Region': 'country', 'Create Date': 'createdAt', 'Marketing emails opened': null,
    });
  });

  it('Salesforce', () => {
    expect(guess(['Contact ID', 'First Name', 'Last Name', 'Email', 'Account Name', 'Lead Status', 'Mailing City', 'Mailing State/Province', 'Mailing Country', 'Created Date', 'Email Opt Out', 'Contact Owner'])).toEqual({
      'Contact ID': 'id', 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'email', 'Account Name': 'company', 'Lead Status': 'lifecycleStage',
      'Mailing City': 'city', 'Mailing State/Province': 'state', 'Mailing Country': 'country', 'Created Date': 'createdAt', 'Email Opt Out': null, 'Contact Owner': null,
    });
  });

  it('Pipedrive', () => {
    expect(guess(['Person - ID', 'Person - Name', 'Person - Email - Work', 'Person - Organization', 'Person - Label', 'Person - Add time', 'Organization - Name'])).toEqual({
      'Person - ID': 'id', 'Person - Name': 'fullName', 'Person - Email - Work': 'email', 'Person - Organization': null, 'Person - Label': 'lifecycleStage',
      'Person - Add time': 'createdAt', 'Organization - Name': 'company',
    });
  });

  it('Zoho', () => {
    expect(guess(['Record Id', 'First Name', 'Last Name', 'Full Name', 'Email', 'Company', 'Lead Status', 'City', 'State', 'Country', 'Created Time'])).toEqual({
      'Record Id': 'id', 'First Name': 'firstName', 'Last Name': 'lastName', 'Full Name': null, Email: 'email', Company: 'company', 'Lead Status': 'lifecycleStage',
      City: 'city', State: 'state', Country: 'country', 'Created Time': 'createdAt',
    });
  });

  it('generic exports', () => {
    expect(guess(['name', 'email_address', 'organisation', 'Customer Status', 'lastPurchaseDate', 'Last Order Total', 'LTV', 'town', 'Province', 'nation', 'Signup Date'])).toEqual({
      name: 'fullName', email_address: 'email', organisation: 'company', 'Customer Status': 'lifecycleStage', lastPurchaseDate: 'lastPurchaseDate',
      'Last Order Total': 'lastPurchaseAmount', LTV: 'lifetimeValue', town: 'city', Province: 'state', nation: 'country', 'Signup Date': 'createdAt',
    });
  });

  it('gives each field to one column only, the surest first', () => {
    expect(guessColumns(['Secondary Email', 'Email', 'Email Address'])).toEqual([null, 'email', null]);
    expect(guessColumns(['Status', 'Lifecycle Stage'])).toEqual([null, 'lifecycleStage']);
  });
});
