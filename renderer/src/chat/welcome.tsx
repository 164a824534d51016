/** First run: what Hermes Desktop is, and the one step that gets it working. */
import { Cpu, KeyRound, MessageSquare, Plus } from "lucide-react";
import { useNavigation } from "../stores/stores-context.js";
import { Button } from "../ui/button.js";
import { FirstRunOffers } from "./first-run-offers.js";

const steps = [
  {
    icon: <KeyRound size={16} />,
    title: "Add a provider",
    text: "OpenRouter, OpenAI, or a server on this machine.",
  },
  { icon: <Cpu size={16} />, title: "Pick a main model", text: "The model chat and side tasks use." },
  {
    icon: <MessageSquare size={16} />,
    title: "Start chatting",
    text: "Extend it with plugins when you want more.",
  },
];

export function Welcome() {
  const openAdd = useNavigation((s) => s.openAddProvider);
  return (
    <div className="centered-page">
      <div className="welcome">
        <div className="welcome-mark" aria-hidden="true">
          H
        </div>
        <h1 className="welcome-title">Welcome to Hermes Desktop</h1>
        <p className="welcome-lead">
          Hermes Desktop is a home on your computer for chatting with language models — hosted ones or models
          running locally — and for the plugins that extend it. Your keys stay in your system keychain.
        </p>
        <ol className="welcome-steps">
          {steps.map((step, index) => (
            <li key={step.title} className="welcome-step">
              <span className="welcome-step-icon" aria-hidden="true">
                {step.icon}
              </span>
              <span>
                <span className="welcome-step-title">
                  {index + 1}. {step.title}
                </span>
                <span className="welcome-step-text">{step.text}</span>
              </span>
            </li>
          ))}
        </ol>
        <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={openAdd}>
          Add a provider
        </Button>
        <FirstRunOffers />
      </div>
    </div>
  );
}
