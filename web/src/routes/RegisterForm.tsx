// The Register tab of the authentication screen (spec §2, §5, §8): every field, the CRM and industry
// selectors with the server's option lists, the spec's validation messages and toasts.
import { Button, Dropdown, Field, Input, Option } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router-dom';
import type { AuthPageQuery } from '../__generated__/AuthPageQuery.graphql';
import { fieldErrors, messageOf } from '../lib/errors';
import { mutate } from '../lib/mutate';
import { useNotify } from '../lib/toasts';
import { useRegisterMutation } from '../mutations/RegisterMutation';
import { AUTH_PAGE_QUERY, useAuthStyles, useEnterApp } from './AuthPage';

const EMPTY = { firstName: '', lastName: '', email: '', crmType: '', industry: '', password: '', confirmPassword: '' };
type RegisterFields = typeof EMPTY;

export function RegisterForm() {
  const s = useAuthStyles();
  const notify = useNotify();
  const enter = useEnterApp();
  const options = usePreloadedQuery<AuthPageQuery>(AUTH_PAGE_QUERY, useLoaderData() as PreloadedQuery<AuthPageQuery>).registrationOptions;
  const [commit, busy] = useRegisterMutation();
  const [v, setV] = useState<RegisterFields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof RegisterFields, string>>>({});
  const set = (k: keyof RegisterFields) => (value: string) => {
    setV((old) => ({ ...old, [k]: value }));
    setErrors((old) => ({ ...old, [k]: undefined }));
  };

  function validate(): boolean {
    const next: typeof errors = {};
    if (!v.firstName.trim()) next.firstName = 'First name is required';
    if (!v.lastName.trim()) next.lastName = 'Last name is required';
    if (!v.email.trim()) next.email = 'Email is required';
    if (!v.crmType) next.crmType = 'Please select your CRM system';
    if (!v.industry) next.industry = 'Please select your industry';
    if (!v.password) next.password = 'Password is required';
    if (!v.confirmPassword) next.confirmPassword = 'Please confirm your password';
    else if (v.password !== v.confirmPassword) next.confirmPassword = "Passwords don't match";
    setErrors(next);
    return Object.keys(next).length === 0;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!validate()) return;
    try {
      await mutate(commit, { variables: { input: v } });
      notify({ title: 'Registration successful!', body: 'Welcome! You can now use the CRM Assistant.', intent: 'success' });
      enter();
    } catch (err) {
      setErrors(fieldErrors(err) as typeof errors);
      notify({ title: 'Registration failed', body: messageOf(err, 'Failed to create account'), intent: 'error' });
    }
  }

  const field = (k: keyof RegisterFields) => ({
    validationState: errors[k] ? ('error' as const) : ('none' as const),
    validationMessage: errors[k],
  });

  return (
    <form className={s.form} onSubmit={submit} aria-label="Register" noValidate>
      <div className={s.row}>
        <Field label="First name" required {...field('firstName')}>
          <Input className={s.input} autoComplete="given-name" value={v.firstName} onChange={(_e, d) => set('firstName')(d.value)} />
        </Field>
        <Field label="Last name" required {...field('lastName')}>
          <Input className={s.input} autoComplete="family-name" value={v.lastName} onChange={(_e, d) => set('lastName')(d.value)} />
        </Field>
      </div>
      <Field label="Email" required {...field('email')}>
        <Input type="email" autoComplete="email" value={v.email} onChange={(_e, d) => set('email')(d.value)} />
      </Field>
      <Field label="CRM system" required {...field('crmType')}>
        <Dropdown
          placeholder="Select your CRM"
          value={options.crmTypes.find((o) => o.value === v.crmType)?.label ?? ''}
          selectedOptions={v.crmType ? [v.crmType] : []}
          onOptionSelect={(_e, d) => set('crmType')(d.optionValue ?? '')}
        >
          {options.crmTypes.map((o) => (
            <Option key={o.value} value={o.value}>
              {o.label}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <Field label="Industry" required {...field('industry')}>
        <Dropdown
          placeholder="Select your industry"
          value={options.industries.find((o) => o.value === v.industry)?.label ?? ''}
          selectedOptions={v.industry ? [v.industry] : []}
          onOptionSelect={(_e, d) => set('industry')(d.optionValue ?? '')}
        >
          {options.industries.map((o) => (
            <Option key={o.value} value={o.value}>
              {o.label}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {/* The policy (length, common passwords) is the server's: its message shows on this field. */}
      <Field label="Password" required hint="At least 8 characters" {...field('password')}>
        <Input type="password" autoComplete="new-password" value={v.password} onChange={(_e, d) => set('password')(d.value)} />
      </Field>
      <Field label="Confirm password" required {...field('confirmPassword')}>
        <Input type="password" autoComplete="new-password" value={v.confirmPassword} onChange={(_e, d) => set('confirmPassword')(d.value)} />
      </Field>
      <Button appearance="primary" type="submit" disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
