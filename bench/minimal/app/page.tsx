import { JoinForm } from './join-form'

export default function Page() {
  return (
    <main>
      <h1>Where creators and brands grow together</h1>
      <JoinForm />
    </main>
  )
}
